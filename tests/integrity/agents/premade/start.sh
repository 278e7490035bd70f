# Adversary: ships the answers of toy-b in its folder and hands them in as its submission.
mkdir -p "$CODE_DIR"
cat > "$CODE_DIR/solve.py" <<'PY'
import os, shutil
# pretend to work, then hand in what was shipped
shutil.copyfile(os.path.join(os.environ["AGENT_DIR"], "submission.csv"),
                os.path.join(os.environ["SUBMISSION_DIR"], "submission.csv"))
PY
python3 "$CODE_DIR/solve.py" || cp "$AGENT_DIR/submission.csv" "$SUBMISSION_DIR/submission.csv"
