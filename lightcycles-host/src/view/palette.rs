//! The colours of the board, shared by the page and the terminal so that a
//! player looks the same wherever the game is watched.

/// A colour as the page draws it (sRGB) and as a 256-colour terminal shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Colour {
    /// Red, green, blue.
    pub rgb: [u8; 3],
    /// The nearest entry of the xterm 256-colour table.
    pub ansi: u8,
}

impl Colour {
    /// `#rrggbb`, as CSS and the canvas take it.
    pub fn hex(self) -> String {
        let [r, g, b] = self.rgb;
        format!("#{r:02x}{g:02x}{b:02x}")
    }
}

const fn colour(r: u8, g: u8, b: u8, ansi: u8) -> Colour {
    Colour { rgb: [r, g, b], ansi }
}

/// One colour per player id (docs/RULES.md allows up to 8 players), chosen to stay
/// apart from each other and from the rocks on a dark board.
pub const PLAYERS: [Colour; 8] = [
    colour(0x00, 0xd8, 0xff, 45),  // cyan
    colour(0xff, 0x8c, 0x1a, 208), // orange
    colour(0xff, 0x4f, 0xd8, 206), // magenta
    colour(0x5d, 0xff, 0x3a, 82),  // green
    colour(0xff, 0xe1, 0x4d, 221), // yellow
    colour(0x4d, 0x7c, 0xff, 69),  // blue
    colour(0xff, 0x3b, 0x3b, 203), // red
    colour(0xb5, 0x8c, 0xff, 141), // violet
];

/// An empty cell.
pub const EMPTY: Colour = colour(0x1a, 0x20, 0x2b, 236);
/// The thin lines between empty cells on the page.
pub const GRID: Colour = colour(0x11, 0x15, 0x1c, 234);
/// A rock.
pub const ROCK: Colour = colour(0x6b, 0x72, 0x80, 244);

/// The colour of player `id`; ids past the palette wrap around (a checked
/// replay never has more than eight players).
pub fn player(id: usize) -> Colour {
    PLAYERS[id % PLAYERS.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_colour_on_the_board_is_distinct() {
        let mut all: Vec<Colour> = PLAYERS.to_vec();
        all.extend([EMPTY, GRID, ROCK]);
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a.rgb, b.rgb);
                assert_ne!(a.ansi, b.ansi);
            }
        }
    }

    #[test]
    fn hex_is_css_notation() {
        assert_eq!(PLAYERS[0].hex(), "#00d8ff");
        assert_eq!(ROCK.hex(), "#6b7280");
        assert_eq!(player(9), PLAYERS[1]);
    }
}
