//! An example wasm bot: of the moves that do not crash at once, the one
//! whose cell reaches the most free cells, ties broken by the bot's own
//! random numbers (so its games follow the seed and nothing else).
//!
//! Built for `wasm32-wasip1` it also says on stderr (its log) what seed it
//! plays with, and when it is left with no move that does not crash at
//! once: the host's sandboxed WASI takes `eprintln!` there.

use lightcycles_wasm_bot::{export_bot, Dir, View, WasmBot, EMPTY};

/// The bot's state: its random generator and a reused flood-fill buffer.
pub struct Room {
    rng: u64,
    seen: Vec<u32>,
    stack: Vec<u32>,
    mark: u32,
}

impl Room {
    /// SplitMix64: a small generator, enough for tie-breaks.
    fn next(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Free cells reachable from (x, y), that cell included.
    fn room(&mut self, view: &View<'_>, x: i32, y: i32) -> u32 {
        let (w, h) = (view.width() as i32, view.height() as i32);
        let grid = view.grid();
        if self.seen.len() != grid.len() {
            self.seen = vec![0; grid.len()];
        }
        self.mark = self.mark.wrapping_add(1).max(1);
        self.stack.clear();
        let start = (y * w + x) as u32;
        self.seen[start as usize] = self.mark;
        self.stack.push(start);
        let mut count = 0;
        while let Some(cell) = self.stack.pop() {
            count += 1;
            let (cx, cy) = ((cell as i32) % w, (cell as i32) / w);
            for d in Dir::ALL {
                let (dx, dy) = d.delta();
                let (nx, ny) = (cx + dx, cy + dy);
                if nx < 0 || ny < 0 || nx >= w || ny >= h {
                    continue;
                }
                let next = (ny * w + nx) as usize;
                if grid[next] == EMPTY && self.seen[next] != self.mark {
                    self.seen[next] = self.mark;
                    self.stack.push(next as u32);
                }
            }
        }
        count
    }
}

impl WasmBot for Room {
    fn new(seed: u64) -> Self {
        // On wasm32-unknown-unknown std has no stderr: only WASI builds say it.
        #[cfg(target_os = "wasi")]
        eprintln!("wasm-bot: seed {seed}");
        Room { rng: seed, seen: Vec::new(), stack: Vec::new(), mark: 0 }
    }

    fn choose(&mut self, view: &View<'_>) -> Option<Dir> {
        let me = view.me();
        let mut best: Option<(u32, u64, Dir)> = None;
        for d in Dir::ALL {
            if view.crashes_at_once(d) {
                continue;
            }
            let (dx, dy) = view.effective(d).delta();
            let room = self.room(view, me.x as i32 + dx, me.y as i32 + dy);
            let tie = self.next();
            if best.map_or(true, |(r, t, _)| (room, tie) > (r, t)) {
                best = Some((room, tie, d));
            }
        }
        if best.is_none() {
            #[cfg(target_os = "wasi")]
            eprintln!("tick {}: no move left that does not crash at once", view.tick());
        }
        Some(best.map_or(me.dir, |(_, _, d)| d))
    }
}

export_bot!(Room);
