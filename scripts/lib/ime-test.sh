#!/usr/bin/env bash
# A real input method in the real app: fcitx5 with its pinyin engine under the test
# session's X display, keys typed by xdotool as a person's keyboard would send them (the
# WebDriver's synthetic keys never pass through an input method). Checks that Enter during
# a composition commits the letters and does not send, that a candidate picked with Space
# is what is sent, and that the input method still works after a turn; then, with the
# app under WebDriver (tests/e2e/ime/), a settings field and a dialog. Run by
# desktop-session.sh (inside xvfb-run and dbus-run-session) after the app is built.
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"

app="${MEMO_APP_BINARY:-$REPO_ROOT/target/debug/memo-desktop}"
cli="${MEMO_CLI:-$REPO_ROOT/target/debug/memo-cli}"
work=$(mktemp -d)
app_pid="" fcitx_pid=""
stop() {
  if [ -n "$app_pid" ]; then kill "$app_pid" 2>/dev/null || true; wait "$app_pid" 2>/dev/null || true; fi
  if [ -n "$fcitx_pid" ]; then kill "$fcitx_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap stop EXIT

# fcitx5's own home: the pinyin engine second in the group, Ctrl+Space switches to it.
mkdir -p "$work/home/.config/fcitx5" "$work/memo" "$work/project" "$work/runtime"
chmod 700 "$work/runtime"
cat > "$work/home/.config/fcitx5/profile" <<'PROFILE'
[Groups/0]
Name=Default
Default Layout=us
DefaultIM=pinyin

[Groups/0/Items/0]
Name=keyboard-us
Layout=

[Groups/0/Items/1]
Name=pinyin
Layout=

[GroupOrder]
0=Default
PROFILE
# No model is needed: a sent message is stored before the (unreachable) model is asked.
printf 'current_provider = "none"\n[[providers.none]]\nname = "none"\nmodel = "m"\nbase_url = "http://127.0.0.1:9/v1"\n' > "$work/memo/config.toml"

export GTK_IM_MODULE=fcitx XMODIFIERS=@im=fcitx
HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime" fcitx5 --disable=wayland,notificationitem,cloudpinyin \
  > "$work/fcitx5.log" 2>&1 &
fcitx_pid=$!
sleep 3
MEMO_HOME="$work/memo" "$app" "$work/project" > "$work/app.log" 2>&1 &
app_pid=$!

sessions() { MEMO_HOME="$work/memo" RUST_LOG=off "$cli" sessions list --json; }
count() { sessions | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["sessions"] if isinstance(d,dict) else d))'; }
shot() { import -window root "$REPO_ROOT/tests/e2e/artifacts/ime-$1.png" 2>/dev/null || true; }
fail() { shot failure; echo "IME test failed: $*" >&2; tail -20 "$work/fcitx5.log" >&2; exit 1; }

for _ in $(seq 1 40); do xdotool search --name "^Memo" >/dev/null 2>&1 && break; sleep 0.5; done
sleep 4 # the page loads and focuses the composer
xdotool key --clearmodifiers ctrl+space
sleep 0.5

# 1. Enter while composing commits the letters; nothing is sent.
xdotool type --delay 100 "nihao"
sleep 0.7
shot composing
xdotool key Return
sleep 2
[ "$(count)" = 0 ] || fail "Enter during the composition sent the message"
shot committed-letters

# 2. The committed letters go with the next Enter.
xdotool key Return
sleep 2
[ "$(count)" = 1 ] || fail "the message was not sent by the Enter after the composition"

# 3. After the turn (it fails: no model answers) the input method still composes, and a
# candidate picked with Space is what is sent.
id=$(sessions | python3 -c 'import json,sys; d=json.load(sys.stdin); s=d["sessions"] if isinstance(d,dict) else d; print(s[0]["id"])')
for _ in $(seq 1 60); do
  MEMO_HOME="$work/memo" RUST_LOG=off "$cli" sessions show "$id" | grep -q "turn failed" && break
  sleep 0.5
done
xdotool type --delay 100 "zhongwen"
sleep 0.7
xdotool key space
sleep 0.7
xdotool key Return
sleep 3
shot after-a-turn
shown=$(MEMO_HOME="$work/memo" RUST_LOG=off "$cli" sessions show "$id")
grep -q "> nihao" <<<"$shown" || fail "the first message is not the committed letters: $shown"
grep -q "> 中文" <<<"$shown" || fail "the candidate picked after a turn was not sent: $shown"
# 4. A field outside the composer: the session's rename field in the sidebar (its pencil,
# at the row's place in the window). Escape during a composition drops the composition and
# keeps the field open; Enter commits the letters and does not save; a candidate picked
# with Space and then Enter saves it.
title() { sessions | python3 -c 'import json,sys; d=json.load(sys.stdin); s=d["sessions"] if isinstance(d,dict) else d; print(s[0].get("title") or "")'; }
# The second turn fails too (no model answers); once it has, the sidebar has no "Active"
# section and the session's row, with its pencil, is the first under "Sessions".
for _ in $(seq 1 90); do
  [ "$(MEMO_HOME="$work/memo" RUST_LOG=off "$cli" sessions show "$id" | grep -c "turn failed")" -ge 2 ] && break
  sleep 0.5
done
sleep 1.5
wid=$(xdotool search --onlyvisible --name "^Memo" | head -1)
eval "$(xdotool getwindowgeometry --shell "$wid")" # X, Y: the window's corner on the screen
xdotool mousemove $((X + 190)) $((Y + 239))
sleep 0.5
xdotool click 1
sleep 1
shot rename-open
xdotool key ctrl+a
xdotool type --delay 100 "ceshi"
sleep 0.5
xdotool key Escape
sleep 0.7
xdotool type --delay 100 "zhongwen"
sleep 0.7
xdotool key Return
sleep 1.5
shot rename-committed-letters
[ "$(title)" != "zhongwen" ] || fail "Enter during the composition saved the rename"
xdotool key ctrl+a
xdotool type --delay 100 "zhongwen"
sleep 0.7
xdotool key space
sleep 0.7
xdotool key Return
sleep 2
shot renamed
[ "$(title)" = "中文" ] || fail "the rename typed through the input method was not saved as 中文 (title: $(title))"

kill "$app_pid" 2>/dev/null || true
wait "$app_pid" 2>/dev/null || true
app_pid=""
echo "IME test: Enter in a composition commits and does not send; Space picks 中文 after a turn; in the rename field Escape drops only the composition and Enter commits without saving"

# 5. A settings field and a dialog, found and checked through WebDriver, typed by xdotool.
(cd "$REPO_ROOT/tests/e2e" && E2E_IME=1 node --test --test-concurrency=1 --test-reporter=spec ime/) ||
  fail "the input method in a settings field or a dialog (tests/e2e/ime/ime-fields.test.mjs)"
