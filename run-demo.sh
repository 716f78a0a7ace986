#!/bin/sh
# One command for a newcomer: install, build, run the demo pipeline.
set -eu
cd "$(dirname "$0")"
tools/setup.sh
pipelines/demo.sh build demo-output
