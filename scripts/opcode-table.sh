#!/bin/sh
# opcode-table.sh - prints the opcode table of docs/bytecode.md from src/opcodes.def, so the
# list of instructions is written in one place only. tests/run_golden.sh checks they agree.
dir=$(dirname "$0")/..
echo "| opcode | operand | marks | synopsis |"
echo "|---|---|---|---|"
sed -n 's/^OP(\([A-Z]*\), *SHAPE_\([A-Z]*\), *\(-*[0-9]*\), *"\(.*\)")$/| `\1` | \2 | \3 | \4 |/p' "$dir/src/opcodes.def" |
    sed 's/| NONE |/| - |/; s/| JUMP |/| code offset |/; s/| DIR |/| direction |/; s/| CELL |/| cell |/; s/| TYPE |/| piece type |/; s/| ZONE |/| zone |/; s/| BYTE |/| small integer |/; s/| DIRSET |/| direction, type set |/; s/| SLIDE |/| direction, two type sets |/; s/| COUNTER |/| counter, signed value |/; s/| TYPENUM |/| piece type, number |/'
