#!/usr/bin/env bash
# Runs each coverage-guided fuzz target of LightCycles for SECONDS (default
# 60), one after the other, and prints what each ran and found.
#
#   fuzz/run.sh [SECONDS] [TARGET...]
#
# Needs cargo-fuzz (`cargo install --locked cargo-fuzz`). Uses the nightly
# toolchain when it is installed; otherwise the stable one with
# RUSTC_BOOTSTRAP=1, which lets stable rustc take the sanitizer flags
# cargo-fuzz passes (the sanitizer runtimes ship with stable). Targets: command, map_2010, replay, replay_view, config,
# ffi_calls, metric (all by default). Corpora grow in fuzz/corpus/TARGET (seeded
# from fuzz/seeds/TARGET and the golden replays); a failing input is saved
# in fuzz/artifacts/TARGET/ and the script exits 1. Builds go to
# $CARGO_TARGET_DIR/fuzz when CARGO_TARGET_DIR is set, else fuzz/target.
set -euo pipefail

# The whole script is one function, read before it runs, so that editing
# the file during a long run cannot change the run.
main() {
  cd "$(dirname "$0")"

  seconds="${1:-60}"
  shift || true
  if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: fuzz/run.sh [SECONDS] [TARGET...]: SECONDS must be a positive whole number, not '$seconds'" >&2
    exit 2
  fi
  all=(command map_2010 replay replay_view config ffi_calls metric)
  targets=("$@")
  if [ ${#targets[@]} -eq 0 ]; then targets=("${all[@]}"); fi

  if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "error: cargo-fuzz is missing: cargo install --locked cargo-fuzz" >&2
    exit 2
  fi
  if cargo +nightly --version >/dev/null 2>&1; then
    toolchain=(+nightly)
    echo "=== toolchain: nightly"
  else
    toolchain=()
    export RUSTC_BOOTSTRAP=1
    echo "=== toolchain: stable with RUSTC_BOOTSTRAP=1 (no nightly installed)"
  fi
  target_dir="${CARGO_TARGET_DIR:+$CARGO_TARGET_DIR/fuzz}"
  target_dir="${target_dir:-$PWD/target}"

  echo "=== building the fuzz targets (AddressSanitizer)"
  cargo "${toolchain[@]}" fuzz build --target-dir "$target_dir"

  status=0
  summary=()
  for t in "${targets[@]}"; do
    corpus="corpus/$t"
    mkdir -p "$corpus" "artifacts/$t"
    extra=()
    case "$t" in
      command | metric) extra=(-max_len=4096) ;;
      map_2010) extra=(-max_len=8192) ;;
      ffi_calls) extra=(-max_len=4096) ;;
      replay | replay_view)
        # The golden replays, as raw text (a first byte below 64 says so).
        for f in ../lightcycles-core/tests/golden-replays/*.json; do
          seed="$corpus/golden_$(basename "$f" .json)"
          [ -e "$seed" ] || { printf '\0'; cat "$f"; } >"$seed"
        done
        extra=(-dict=dict/replay.dict)
        ;;
    esac
    log="artifacts/$t/last-run.log"
    echo "=== fuzz $t for ${seconds}s"
    if cargo "${toolchain[@]}" fuzz run --target-dir "$target_dir" "$t" "$corpus" "seeds/$t" -- \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "${extra[@]}" >"$log" 2>&1; then
      result="no finding"
    else
      result="FAILED: see fuzz/$log and fuzz/artifacts/$t/"
      status=1
      tail -n 40 "$log" >&2
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    inputs=$(find "$corpus" -type f | wc -l)
    summary+=("$(printf '%-12s %6ss %12s executions %7s corpus inputs  %s' "$t" "$seconds" "${runs:-?}" "$inputs" "$result")")
  done

  echo
  printf '%s\n' "${summary[@]}"
  exit "$status"
}

main "$@"
