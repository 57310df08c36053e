//! A sweep: every combination of the listed values of a block's parameters and options
//! (`grid`), each run and recorded (`runner`, `recording`, `store`), locally or as Slurm jobs
//! (`slurm`), then tabulated and plotted (`table`, `plot`).

pub mod grid;
pub mod plot;
pub mod recording;
pub mod runner;
pub mod slurm;
pub mod store;
pub mod table;
