#!/bin/sh
# opcode-table.sh - prints the opcode table of docs/bytecode.md from src/opcodes.def, so the
# list of instructions is written in one place only. tests/run_golden.sh checks they agree.
dir=$(dirname "$0")/..
echo "| opcode | operands | marks | synopsis |"
echo "|---|---|---|---|"
sed -n 's/^OP(\([A-Z]*\), *\([A-Z_]*\), *\([A-Z_]*\), *\([A-Z_]*\), *\(-*[0-9]*\), *"\(.*\)")$/\1|\2|\3|\4|\5|\6/p' \
    "$dir/src/opcodes.def" |
    awk -F'|' '
        BEGIN {
            word["JUMP"] = "code offset"; word["CELL"] = "cell"; word["DIR"] = "direction"
            word["TYPE"] = "piece type"; word["ZONE"] = "zone"; word["TYPESET"] = "type set"
            word["TYPESET_OPT"] = "type set or none"; word["COUNTER"] = "counter"
            word["AMOUNT"] = "signed value"; word["COUNT"] = "count"; word["CASTLE"] = "castling right"
            word["KIND"] = "move kind"; word["PROMO"] = "promotion set"
            word["FLAG"] = "move flag"; word["TAG"] = "tag"; word["MODE"] = "0 or 1"
            word["ZONE_OPT"] = "zone or all"; word["LINES"] = "lines"; word["ORIENT"] = "orientation"
        }
        {
            ops = ""
            for (i = 2; i <= 4; i++)
                if ($i != "NONE") ops = ops (ops == "" ? "" : ", ") word[$i]
            if (ops == "") ops = "-"
            printf "| `%s` | %s | %s | %s |\n", $1, ops, $5, $6
        }'
