#!/usr/bin/env bash
# Renders the segments of a Segue plan as an AWS Batch array job, then a
# dependent join (N_TO_N is not needed: the join depends on the whole array).
#
#   Samples/cluster/aws-batch-array-job.sh QUEUE JOB_DEFINITION /shared/job
#
# The job definition runs an image with segue and mounts the same EFS (or FSx)
# file system at /shared on every instance; its command is overridden below.
# Each child job gets AWS_BATCH_JOB_ARRAY_INDEX (0 .. N-1), which
# `segue render` reads when --segment is not given. Plan first, on any machine
# that mounts /shared:
#   segue plan /shared/clips.txt -o /shared/out.mp4 --work /shared/job --transition fade
set -euo pipefail
queue=$1 definition=$2 work=$3
segments=$(grep -c '"startFrame"' "$work/plan.json")

# An array needs 2 or more children: a one-segment plan is a plain job with its index set.
if (( segments > 1 )); then shape=(--array-properties "size=$segments"); else shape=(); fi
render=$(aws batch submit-job --job-name segue-render --job-queue "$queue" --job-definition "$definition" \
  "${shape[@]}" \
  --retry-strategy attempts=3 \
  --container-overrides "command=$( (( segments > 1 )) && echo "segue,render,$work" || echo "segue,render,$work,--segment,0")" \
  --query jobId --output text)
echo "render array job $render ($segments segments)"

join=$(aws batch submit-job --job-name segue-join --job-queue "$queue" --job-definition "$definition" \
  --depends-on "jobId=$render" \
  --container-overrides "command=segue,join,$work,--report,$work/join-report.json" \
  --query jobId --output text)
echo "join job $join (runs once every segment succeeded)"
