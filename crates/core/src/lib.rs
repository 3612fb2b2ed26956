//! Pure core of kubectl-cronjob-doctor: the snapshot model, the controller replay, the rules
//! and the renderers. Nothing here does IO or reads a clock; `now` is always a parameter.

pub mod model;
