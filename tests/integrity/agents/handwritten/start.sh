# Adversary: no code computes its predictions; it writes a hard-coded CSV to its logs and copies it.
cat > "$LOGS_DIR/predictions.csv" <<'CSV'
id,label
p0,0
p1,0
p2,0
p3,0
p4,0
p5,0
p6,0
p7,0
p8,0
p9,0
CSV
cp "$LOGS_DIR/predictions.csv" "$SUBMISSION_DIR/submission.csv"
