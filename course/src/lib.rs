//! The course's single-player tests (the "20 tests" of Resource Rush), in one home: the
//! [`checker`] that plays a folder's tests with a bot process through the referee, the
//! [`testgen`] that writes the tests and their minimums, the [`solver`] that bounds what any
//! bot can score, and the [`offline`] driver that plays a strategy in-process for both. The
//! reference strategies they measure against live in `sample-bots`; the arena library itself
//! knows nothing of them.

#![warn(missing_docs)]

pub mod checker;
pub use sample_bots::cputime;
pub mod offline;
pub mod solver;
pub mod testgen;
