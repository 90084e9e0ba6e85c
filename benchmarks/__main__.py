"""Run every benchmark and print its figures."""

from benchmarks import rules

for line in rules.run():
    print(line)
