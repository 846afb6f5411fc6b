#!/bin/sh
# include-cycles.sh - fails when the modules of src/ depend on each other in a cycle, other than
# the one the design names (vm <-> attack: the VM's `attacked` condition asks the attack tests,
# which run enemy programs in the VM). Module X depends on module Y when src/X.c or src/X.h
# includes "Y.h". Prints the layer order (each module after everything it depends on) with -v.
# Usage: scripts/include-cycles.sh [-v] [SRC_DIR]
verbose=0
[ "$1" = -v ] && { verbose=1; shift; }
src=${1:-src}
allowed="attack vm"

for f in "$src"/*.c "$src"/*.h; do
    m=$(basename "$f"); m=${m%.*}
    sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([A-Za-z0-9_]*\)\.h".*/\1/p' "$f" | while read -r dep; do
        [ "$dep" != "$m" ] && [ -f "$src/$dep.h" ] && echo "$m $dep"
    done
    echo "$m $m"
done | sort -u | awk -v allowed="$allowed" -v verbose="$verbose" '
    { mod[$1] = 1; mod[$2] = 1; if ($1 != $2) edge[$1, $2] = 1 }
    END {
        n = 0
        for (m in mod) names[++n] = m
        # sort the names, so the report is the same on every machine
        for (i = 2; i <= n; i++)
            for (j = i; j > 1 && names[j - 1] > names[j]; j--) { t = names[j]; names[j] = names[j - 1]; names[j - 1] = t }
        for (i = 1; i <= n; i++) for (j = 1; j <= n; j++) reach[names[i], names[j]] = edge[names[i], names[j]]
        for (k = 1; k <= n; k++) for (i = 1; i <= n; i++) if (reach[names[i], names[k]])
            for (j = 1; j <= n; j++) if (reach[names[k], names[j]]) reach[names[i], names[j]] = 1
        split(allowed, ok, " ")
        bad = 0
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) {
            a = names[i]; b = names[j]
            if (!(reach[a, b] && reach[b, a])) continue
            if (a == ok[1] && b == ok[2]) continue
            printf "include cycle: %s and %s depend on each other\n", a, b
            bad = 1
        }
        if (bad) exit 1
        if (verbose) {
            # layers: a module sits one above the highest module it depends on (the named
            # cycle counts as one layer)
            for (round = 0; round < n; round++)
                for (i = 1; i <= n; i++) {
                    a = names[i]; l = 0
                    for (j = 1; j <= n; j++) {
                        b = names[j]
                        if (a != b && edge[a, b] && !(reach[b, a]) && layer[b] + 1 > l) l = layer[b] + 1
                    }
                    layer[a] = l
                }
            top = 0
            for (i = 1; i <= n; i++) if (layer[names[i]] > top) top = layer[names[i]]
            for (l = top; l >= 0; l--) {
                line = ""
                for (i = 1; i <= n; i++) if (layer[names[i]] == l) line = line " " names[i]
                printf "layer %d:%s\n", l, line
            }
        }
        print "include graph: no cycle but " ok[1] " <-> " ok[2]
    }'
