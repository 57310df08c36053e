//! An exploration: a block's design space (`space`) searched in stages of estimates, synthesis
//! and place and route (`search`), its figures fitted (`fit`) and compared (`points`), and the
//! front, the recommendation and its files (`report`, `chart`).

pub mod chart;
pub mod fit;
pub mod points;
pub mod report;
pub mod search;
pub mod space;
