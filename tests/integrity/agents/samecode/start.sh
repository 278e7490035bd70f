# Writes the same solver into CODE_DIR on every run (two seeds share their code).
mkdir -p "$CODE_DIR"
cp "$AGENT_DIR/solver.py" "$CODE_DIR/solver.py"
python3 "$CODE_DIR/solver.py"
