#!/usr/bin/env bash
# Every scenario on its versions, the resume requests, a fork check per session and the self-test.
set -euo pipefail
cd "$(dirname "$0")"
node gen-session.mjs --all
node record-resume.mjs --all
for dir in out/sessions/v*/*/; do
  v=$(basename "$(dirname "$dir")"); v=${v#v}
  chat=$(node -e 'const m=require("./"+process.argv[1]+"manifest.json");const s=m.sessions.filter(x=>x.kind!=="subagent"&&x.resumable).sort((a,b)=>b.messages-a.messages)[0];console.log(process.argv[1]+s.file)' "$dir")
  fork=$(node hand-fork.mjs "$chat" --out "/tmp/gemini-fork-$$-$(basename "$dir").tmp" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s);const path=require("path");const dest=path.join(path.dirname(r.file),path.basename(process.argv[1]).replace(/-[0-9a-zA-Z_]{8}(\.jsonl?)$/,"-"+r.sessionId.slice(0,8)+"$1"));require("fs").renameSync(r.file,dest);console.log(dest)})' "$chat")
  node fork-check.mjs --original "$chat" --fork "$fork" --cli "$v" > "${dir}fork-check.json" && echo "fork resumes: $dir" || echo "FORK CHECK FAILED: $dir"
  rm -f "$fork"
done
node fork-check-selftest.mjs "$(ls out/sessions/v0.61/01-reads-edits-gone/gemini-tmp/*/chats/session-*.jsonl | head -1)" --cli 0.61
