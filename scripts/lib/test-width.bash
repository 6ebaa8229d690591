# Sourced by the scripts that run the suite (scripts/test, scripts/stress-tests): how many
# tests Swift Testing runs at once.
#
# Left to itself it starts every test of the run at the same moment, 674 of them, on the
# cooperative pool's two threads. Each test's wall-clock time is then the whole suite's
# start-up: measured on one idle build, nothing finished for the first 5.5 s, a view-model
# test of 0.2 s took 9.7 s against its 10 s bound, and under load such tests failed. Thirty-two
# at a time, each test runs in about its own time (0.2 s), and the run as a whole is shorter:
# 105 s against 117 s on the same build (16 at a time: 110 s). The variable is Swift
# Testing's own (`--experimental-maximum-parallelization-width`); an explicit value wins.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-32}"
