# Adversary: its solver is a public notebook's code, lightly renamed (the reference corpus has it).
mkdir -p "$CODE_DIR"
sed -e 's/read_rows/load_table/g' -e 's/write_rows/save_table/g' "$AGENT_DIR/solver.py" > "$CODE_DIR/my_solution.py"
python3 "$CODE_DIR/my_solution.py"
