#!/bin/bash
# tests/golden/config/session.sh OUT CASE_DIR...
# Runs the session of each case directory (its cases.txt) and writes the
# transcript to CASE_DIR/OUT: with terraform on PATH this records Terraform's
# answers (record.sh), with the terraform shim of replay.sh first on PATH it
# replays them through hclvm. Absolute paths of the case directory and of
# $HOME are written as @CASEDIR@ and @HOME@, so transcripts compare anywhere.
#
# cases.txt lines:
#   # comment            ignored
#   @args WORDS           console arguments for following lines (shell words, eval'd)
#   @env  VAR=VAL ...     environment for following lines (eval'd)
#   @reset                clear @args and @env
#   @init                 terraform init -backend=false (offline; local child modules)
#   @sh CMD               run a shell command in the case dir and record its output
#   @novalidate           do not record terraform validate -json
#   anything else         one expression: printf '%s\n' EXPR | terraform console ARGS
# Then `terraform validate -json` is recorded (unless @novalidate).
set -u
out=${1:?usage: session.sh OUT CASE_DIR...}
shift
export TF_CLI_CONFIG_FILE=/dev/null TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for dir in "$@"; do
  (
  cd "$dir" || exit 1
  case_dir=$(pwd -P)
  : > "$out"
  args=""; envs=""; novalidate=0
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in
      ''|'#'*) continue;;
      '@reset') args=""; envs=""; continue;;
      '@args '*) args="${line#@args }"; continue;;
      '@env '*) envs="${line#@env }"; continue;;
      '@novalidate') novalidate=1; continue;;
      '@init') echo "\$ terraform init -backend=false" >> "$out"
               terraform init -backend=false -no-color >"$tmp/init" 2>&1; echo "[exit $?]" >> "$out";;
      '@sh '*) cmd="${line#@sh }"; echo "\$ $cmd" >> "$out"
               (eval "$cmd") >>"$out" 2>&1; echo "[exit $?]" >> "$out";;
      *) printf '$ echo '"'"'%s'"'"' | %sterraform console %s\n' "$line" "${envs:+$envs }" "$args" >> "$out"
         eval "printf '%s\n' \"\$line\" | env $envs terraform console -no-color $args" >"$tmp/o" 2>"$tmp/e"
         rc=$?
         if [ -s "$tmp/o" ]; then echo "--- stdout" >> "$out"; cat "$tmp/o" >> "$out"; fi
         if [ -s "$tmp/e" ]; then
           echo "--- stderr" >> "$out"
           sed -e '/^goroutine [0-9]* \[/,$d' "$tmp/e" >> "$out"
           grep -q '^goroutine ' "$tmp/e" && echo "(Go stack trace elided)" >> "$out"
         fi
         echo "[exit $rc]" >> "$out";;
    esac
    echo >> "$out"
  done < cases.txt
  if [ $novalidate = 0 ]; then
    echo '$ terraform validate -json' >> "$out"
    terraform validate -json -no-color >> "$out" 2>&1; echo "[exit $?]" >> "$out"
  fi
  sed -i -e "s|$case_dir|@CASEDIR@|g" -e "s|\"$HOME/|\"@HOME@/|g" "$out"
  rm -rf .terraform .terraform.lock.hcl
  )
done
