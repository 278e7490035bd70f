mkdir -p "$CODE_DIR"
cp "$AGENT_DIR/probe.py" "$CODE_DIR/probe.py"
python3 "$CODE_DIR/probe.py"
