// The page of `dfasolve serve` in a real headless browser: play a few best moves by clicking,
// check every value the page shows against `dfasolve query --json` on the same position, undo
// once, and save screenshots. Run by `results/serve/check.sh`.
"use strict";
const { chromium } = require("playwright-core");
const { spawn, execFileSync } = require("child_process");
const path = require("path");

const [dfasolve, solution, outDir, plies] = process.argv.slice(2);
const moves = Number(plies || 4);

function query(position) {
  const out = execFileSync(dfasolve, ["query", solution, position, "--json"], { encoding: "utf8" });
  return JSON.parse(out);
}

// The value the page shows for a move: the opponent's value turned to the mover's.
function forMover(v) {
  if (v === null) return "not covered";
  if (v === "draw") return "draw";
  const m = v.match(/^(win|loss)(?: in (\d+) pl(?:y|ies))?$/);
  const plies = m[2] === undefined ? "" : " in " + (Number(m[2]) + 1);
  return (m[1] === "loss" ? "win" : "loss") + plies;
}

function check(ok, what) {
  if (!ok) throw new Error("check failed: " + what);
  console.log("ok: " + what);
}

(async () => {
  const server = spawn(dfasolve, ["serve", solution, "--port", "0"]);
  const address = await new Promise((resolve, reject) => {
    server.stdout.on("data", (d) => {
      const m = String(d).match(/http:\/\/[0-9.:]+\//);
      if (m) resolve(m[0]);
    });
    server.on("exit", (code) => reject(new Error("the server stopped: " + code)));
  });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium" });
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    await page.goto(address);
    let previous = null;
    for (let ply = 0; ply <= moves; ply++) {
      await page.waitForFunction((n) => document.body.dataset.plies === String(n), ply);
      const position = (await page.textContent("#position")).replace(/^position: /, "");
      const want = query(position);
      const shown = await page.textContent("#value");
      check(shown.endsWith(want.value === null ? "not covered by this solution" : want.value),
        `ply ${ply}: ${position} is ${want.value} as query says`);
      const buttons = await page.$$eval("#moves button", (bs) => bs.map((b) => [b.dataset.move, b.dataset.value]));
      check(buttons.length === want.moves.length, `ply ${ply}: all ${want.moves.length} moves listed`);
      for (let i = 0; i < buttons.length; i++) {
        check(buttons[i][0] === want.moves[i].move && buttons[i][1] === forMover(want.moves[i].value_for_opponent),
          `ply ${ply}: move ${buttons[i][0]} shown as ${buttons[i][1]}`);
      }
      await page.screenshot({ path: path.join(outDir, `ply-${ply}.png`) });
      if (ply === moves || buttons.length === 0) break;
      previous = position;
      await page.click("#moves button >> nth=0");
    }
    // Undo goes back one move.
    const plied = Number(await page.evaluate(() => document.body.dataset.plies));
    await page.click("#undo");
    await page.waitForFunction((n) => document.body.dataset.plies === String(n), plied - 1);
    const back = (await page.textContent("#position")).replace(/^position: /, "");
    check(back === previous, "undo returns to " + previous);
    // A position the solution cannot parse is reported on the page, not a broken page.
    await page.fill("#paste", "not a position");
    await page.click("#go");
    await page.waitForFunction(() => document.getElementById("error").textContent.length > 0);
    check((await page.textContent("#error")).includes("position"), "a bad pasted position is reported");
    await page.screenshot({ path: path.join(outDir, "bad-position.png") });
  } finally {
    await browser.close();
    server.kill();
  }
})().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
