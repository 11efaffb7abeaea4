#!/bin/bash
# Runs the sharded benchmark and its merge on Slurm, from a directory on
# the shared file system:  PARTHACK=/shared/bin/parthack ./submit.sh
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p ledgers # Slurm opens the --output files before a script runs
array=$(sbatch --parsable bench-shards.sbatch)
sbatch --dependency="afterok:${array%%;*}" merge.sbatch
