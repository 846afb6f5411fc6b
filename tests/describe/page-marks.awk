# page-marks.awk - the marks of the diagrams of a rulebook's HTML page, as diagrams-read.awk writes
# those of its text: "<diagram> <cell> <mark>" for each cell group with a mark, diagrams counted
# in page order (the start position's picture is not one).
/<svg / { if ($0 ~ /data-what="diagram"/) n++; inside = $0 ~ /data-what="diagram"/ }
inside && /<g data-cell="/ && /data-mark="/ {
    c = $0; sub(/.*<g data-cell="/, "", c); sub(/".*/, "", c)
    m = $0; sub(/.*data-mark="/, "", m); sub(/".*/, "", m)
    gsub(/&amp;/, "\\&", m)
    print n, c, m
}
