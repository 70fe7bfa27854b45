//! Observations a policy takes directly, the same in every environment:
//! per-seat planes (absolute or egocentric, int8 or float32) and the
//! action mask of the safe moves, written by Rust into numpy arrays.
//!
//! The planes of seat `you`, in order ([`PLANE_NAMES`]): its own trail and
//! head; the other players' trails and heads; rocks (and, egocentric, the
//! cells off the board: both are walls); the heads of the living players;
//! the cell behind each living head, against its direction (with the
//! heads, the direction of every rider).

use lightcycles_core::{bitboard, space};
use lightcycles_core::{Dir, Engine, FastGame, Pos, ROCK};
use numpy::ndarray::ArrayViewMut3;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

/// The number of planes of a seat's observation.
pub const PLANES: usize = 5;

/// The planes, in order: what `lightcycles.env.PLANES` lists.
pub const PLANE_NAMES: [&str; PLANES] = ["own trail", "other trails", "walls", "heads", "behind heads"];

/// A plane cell's type: int8 or float32.
pub trait Cell: Copy + numpy::Element {
    const ZERO: Self;
    const ONE: Self;
}

impl Cell for i8 {
    const ZERO: i8 = 0;
    const ONE: i8 = 1;
}

impl Cell for f32 {
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
}

/// How a seat's planes are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// Centred on the seat's head and turned so that its heading is up
    /// (row 0 ahead), or the board as it is.
    pub egocentric: bool,
    /// Egocentric: the window reaches this many cells from the head each
    /// way, a square of side 2 * radius + 1.
    pub radius: usize,
}

impl View {
    /// The view asked for: `radius` None is the one that sees the whole
    /// board from any cell (the longer side less one).
    pub fn new(egocentric: bool, radius: Option<usize>, width: u32, height: u32) -> PyResult<View> {
        let radius = match radius {
            Some(r) if !egocentric => {
                return Err(PyValueError::new_err(format!("view={r} needs egocentric=True")));
            }
            Some(r) if r == 0 || r > 255 => {
                return Err(PyValueError::new_err(format!("view is 1 to 255 cells, not {r}")));
            }
            Some(r) => r,
            None => width.max(height) as usize - 1,
        };
        Ok(View { egocentric, radius })
    }

    /// (rows, columns) of one plane.
    pub fn shape(&self, width: u32, height: u32) -> (usize, usize) {
        if self.egocentric {
            (2 * self.radius + 1, 2 * self.radius + 1)
        } else {
            (height as usize, width as usize)
        }
    }
}

/// The unit steps ahead of and to the right of a rider heading `dir`
/// (y grows downward).
fn frame(dir: Dir) -> ((i32, i32), (i32, i32)) {
    let (fx, fy) = dir.delta();
    ((fx, fy), (-fy, fx))
}

/// Writes the planes of seat `you` into `out` (PLANES, rows, columns),
/// every cell.
pub fn write_planes<T: Cell>(game: &FastGame, you: usize, view: View, out: &mut ArrayViewMut3<'_, T>) {
    let config = *game.config();
    let (w, h) = (config.width as i32, config.height as i32);
    out.fill(T::ZERO);
    let me = game.player(you);
    // From a cell of the output to the board's cell, and back.
    let ((fx, fy), (rx, ry)) = frame(me.dir);
    let r = view.radius as i32;
    let (rows, cols) = (out.shape()[1], out.shape()[2]);
    let to_board = |row: i32, col: i32| -> (i32, i32) {
        if view.egocentric {
            let (ahead, right) = (r - row, col - r);
            (me.pos.x as i32 + ahead * fx + right * rx, me.pos.y as i32 + ahead * fy + right * ry)
        } else {
            (col, row)
        }
    };
    let to_out = |x: i32, y: i32| -> Option<(usize, usize)> {
        let (row, col) = if view.egocentric {
            let (dx, dy) = (x - me.pos.x as i32, y - me.pos.y as i32);
            (r - (dx * fx + dy * fy), r + dx * rx + dy * ry)
        } else {
            (y, x)
        };
        (row >= 0 && col >= 0 && row < rows as i32 && col < cols as i32).then_some((row as usize, col as usize))
    };
    // The plane a solid cell of value `v` marks.
    let plane = |v: i8| match v {
        v if v == you as i8 => Some(0),
        v if v >= 0 => Some(1),
        ROCK => Some(2),
        _ => None,
    };
    if view.egocentric {
        for row in 0..rows {
            for col in 0..cols {
                let (x, y) = to_board(row as i32, col as i32);
                if x < 0 || y < 0 || x >= w || y >= h {
                    out[[2, row, col]] = T::ONE;
                    continue;
                }
                let pos = Pos::new(x as u8, y as u8);
                // Most cells are empty: one bit says so, before the owner planes.
                if let Some(k) = game.is_solid(pos).then(|| plane(game.cell(pos))).flatten() {
                    out[[k, row, col]] = T::ONE;
                }
            }
        }
    } else {
        // The board as it is: only solid cells mark a plane, and the solid
        // plane's bits name them (a few hundred of some 1,700).
        for pos in bitboard::cells(game.layout(), game.solid()) {
            if let Some(k) = plane(game.cell(pos)) {
                out[[k, pos.y as usize, pos.x as usize]] = T::ONE;
            }
        }
    }
    for id in 0..game.num_players() {
        let p = game.player(id);
        if !p.alive {
            continue;
        }
        if let Some((row, col)) = to_out(p.pos.x as i32, p.pos.y as i32) {
            out[[3, row, col]] = T::ONE;
        }
        let (dx, dy) = p.dir.delta();
        let (bx, by) = (p.pos.x as i32 - dx, p.pos.y as i32 - dy);
        if bx >= 0 && by >= 0 && bx < w && by < h {
            if let Some((row, col)) = to_out(bx, by) {
                out[[4, row, col]] = T::ONE;
            }
        }
    }
}

/// The action mask of seat `you` (N, E, S, W; int8, the type Gymnasium's
/// `Discrete.sample(mask=…)` takes): 1 for the moves that do not crash at
/// once. A rider with no safe move (or out of the game) gets every action
/// marked, so that a masked policy always has one to take: whatever it
/// picks, it crashes (or is ignored).
pub fn mask(game: &FastGame, you: usize) -> [i8; 4] {
    let safe = space::safe_moves(game, you);
    let mut out = [0; 4];
    for d in Dir::ALL {
        out[d.code() as usize] = (safe.is_empty() || safe.contains(d)) as i8;
    }
    out
}

/// numpy's int8 and float32 scalar types.
static SCALAR_TYPES: PyOnceLock<(Py<PyAny>, Py<PyAny>)> = PyOnceLock::new();

/// The cell type of planes: float32 or int8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    I8,
    F32,
}

impl Dtype {
    /// Reads `dtype` as numpy does (np.float32, "float32", "f4", …); int8
    /// and float32 are the two planes come in.
    pub fn from_py(dtype: &Bound<'_, PyAny>) -> PyResult<Dtype> {
        // np.int8 and np.float32 themselves, as envs pass them on every
        // call: known without asking numpy (which costs more than a plane).
        let py = dtype.py();
        let (int8, float32) = SCALAR_TYPES
            .get_or_try_init(py, || -> PyResult<_> {
                let numpy = py.import("numpy")?;
                Ok((numpy.getattr("int8")?.unbind(), numpy.getattr("float32")?.unbind()))
            })
            .map(|(i, f)| (i.bind(py), f.bind(py)))?;
        if dtype.is(int8) {
            return Ok(Dtype::I8);
        }
        if dtype.is(float32) {
            return Ok(Dtype::F32);
        }
        let dtype = py.import("numpy")?.getattr("dtype")?.call1((dtype,))?;
        // The one-letter code, a plain attribute (numpy's `name` is
        // computed in Python, slower than the planes themselves).
        let code: String = dtype.getattr("char")?.extract()?;
        match code.as_str() {
            "b" => Ok(Dtype::I8),
            "f" => Ok(Dtype::F32),
            _ => {
                let name: String = dtype.str()?.extract()?;
                Err(PyValueError::new_err(format!("planes are int8 or float32, not {name}")))
            }
        }
    }
}

/// The colour of each player's trail (its head is drawn brighter), then
/// of empty cells and of rocks: what `rgb_array` renders draw.
const PALETTE: [[u8; 3]; 8] = [
    [230, 60, 60],
    [60, 120, 230],
    [60, 190, 90],
    [230, 180, 40],
    [170, 80, 200],
    [40, 190, 200],
    [240, 120, 30],
    [200, 200, 200],
];
const EMPTY_RGB: [u8; 3] = [20, 20, 28];
const ROCK_RGB: [u8; 3] = [110, 110, 110];

/// The board as an image (height * cell, width * cell, 3) uint8: each
/// trail in its player's colour, heads of living players brighter, rocks
/// grey, a one-pixel gap between cells when a cell is 4 pixels or more.
pub fn draw(game: &FastGame, cell: usize) -> numpy::ndarray::Array3<u8> {
    let c = *game.config();
    let (w, h) = (c.width as usize, c.height as usize);
    let mut out = numpy::ndarray::Array3::<u8>::zeros((h * cell, w * cell, 3));
    let heads: Vec<Option<Pos>> =
        (0..game.num_players()).map(|id| game.player(id)).map(|p| p.alive.then_some(p.pos)).collect();
    let gap = usize::from(cell >= 4);
    for y in 0..h {
        for x in 0..w {
            let pos = Pos::new(x as u8, y as u8);
            let v = game.cell(pos);
            let rgb = match v {
                ROCK => ROCK_RGB,
                v if v >= 0 => {
                    let base = PALETTE[v as usize % PALETTE.len()];
                    if heads[v as usize] == Some(pos) {
                        base.map(|b| b.saturating_add(60))
                    } else {
                        base.map(|b| b / 2 + 20)
                    }
                }
                _ => EMPTY_RGB,
            };
            for py in y * cell..(y + 1) * cell - gap {
                for px in x * cell..(x + 1) * cell - gap {
                    for (k, &value) in rgb.iter().enumerate() {
                        out[[py, px, k]] = value;
                    }
                }
            }
        }
    }
    out
}
