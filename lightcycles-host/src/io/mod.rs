//! What the host reads and writes: the files a user names ([`input`]),
//! files written whole ([`whole_file`]), the places a run writes to
//! ([`output`]), and untrusted text made safe for a
//! terminal or a log ([`untrusted`]).

pub mod input;
pub mod interrupt;
pub mod output;
pub mod untrusted;
pub mod whole_file;
