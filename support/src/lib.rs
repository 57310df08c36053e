//! What every grfgen crate needs of the machine and the user, apart from the hardware: Ctrl-C
//! and the child processes it must stop (`interrupt`), progress on standard error
//! (`progress`), a tool's failure in one line (`tool`), text shown to users (`text`) and input
//! read from files or standard input (`input`).

pub mod input;
pub mod interrupt;
pub mod progress;
pub mod text;
pub mod tool;
