# Adversary: leaves what costs it nothing and the host everything — a sparse 5 GiB submission with
# no line break, and a sparse log of one line just under the per-file cap.
truncate -s 5G "$SUBMISSION_DIR/submission.csv"
truncate -s 95M "$LOGS_DIR/train.log"
echo "left it all behind"
