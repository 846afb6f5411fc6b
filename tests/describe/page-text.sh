#!/bin/sh
# page-text.sh PAGE - the text an HTML rulebook page shows, a line each: its headings and the lines
# of its <pre> blocks, the pictures left out, the markup's escapes undone, empty lines dropped.
sed -e '1,/<body>/d' -e '/^<svg /,/^<\/svg>/d' "$1" |
    sed -e 's/<[^>]*>//g' -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&quot;/"/g' -e 's/&amp;/\&/g' |
    grep -v '^[[:space:]]*$'
