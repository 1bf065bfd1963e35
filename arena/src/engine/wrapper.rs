//! A state played through another ([`Wrapper`]): it changes some of what the inner state says
//! and passes every other [`State`] method on, chance moves included, so that none is dropped.

use serde_json::Value;

use super::{Outcome, PlayerId, Remark, Reply, State, Turn, Verdict};

/// A state around an inner one: each method is the inner state's unless overridden, and
/// every `Wrapper` is a [`State`] (each method as the `State` method of the same name).
pub trait Wrapper: Send {
    /// The state wrapped.
    fn inner(&self) -> &dyn State;
    /// The state wrapped, to change.
    fn inner_mut(&mut self) -> &mut dyn State;

    /// As [`State::num_players`].
    fn num_players(&self) -> usize {
        self.inner().num_players()
    }
    /// As [`State::turn`].
    fn turn(&self) -> Turn {
        self.inner().turn()
    }
    /// As [`State::intro`].
    fn intro(&self, player: PlayerId) -> String {
        self.inner().intro(player)
    }
    /// As [`State::prompt`].
    fn prompt(&self, player: PlayerId) -> String {
        self.inner().prompt(player)
    }
    /// As [`State::answers_may_run_ahead`].
    fn answers_may_run_ahead(&self) -> bool {
        self.inner().answers_may_run_ahead()
    }
    /// As [`State::input_is_intro`].
    fn input_is_intro(&self) -> bool {
        self.inner().input_is_intro()
    }
    /// As [`State::apply`].
    fn apply(&mut self, replies: &[(PlayerId, Reply)]) {
        self.inner_mut().apply(replies)
    }
    /// As [`State::canonical_answer`].
    fn canonical_answer(&self, player: PlayerId, line: &str) -> String {
        self.inner().canonical_answer(player, line)
    }
    /// As [`State::chance_outcomes`].
    fn chance_outcomes(&self) -> Vec<(u64, f64)> {
        self.inner().chance_outcomes()
    }
    /// As [`State::apply_chance`].
    fn apply_chance(&mut self, outcome: u64) {
        self.inner_mut().apply_chance(outcome)
    }
    /// As [`State::is_active`].
    fn is_active(&self, player: PlayerId) -> bool {
        self.inner().is_active(player)
    }
    /// As [`State::outcome`].
    fn outcome(&self) -> Outcome {
        self.inner().outcome()
    }
    /// As [`State::setup`].
    fn setup(&self) -> Value {
        self.inner().setup()
    }
    /// As [`State::frame`].
    fn frame(&self) -> Value {
        self.inner().frame()
    }
    /// As [`State::render`].
    fn render(&self) -> String {
        self.inner().render()
    }
    /// As [`State::verdict`].
    fn verdict(&self) -> Option<Verdict> {
        self.inner().verdict()
    }
    /// As [`State::remarks`].
    fn remarks(&self) -> Vec<Remark> {
        self.inner().remarks()
    }
    /// As [`State::expected_cost`].
    fn expected_cost(&self) -> u64 {
        self.inner().expected_cost()
    }
    /// As [`State::scripted_answer`].
    fn scripted_answer(&self, player: PlayerId) -> Option<String> {
        self.inner().scripted_answer(player)
    }
}

impl<W: Wrapper> State for W {
    fn num_players(&self) -> usize {
        Wrapper::num_players(self)
    }
    fn turn(&self) -> Turn {
        Wrapper::turn(self)
    }
    fn intro(&self, player: PlayerId) -> String {
        Wrapper::intro(self, player)
    }
    fn prompt(&self, player: PlayerId) -> String {
        Wrapper::prompt(self, player)
    }
    fn answers_may_run_ahead(&self) -> bool {
        Wrapper::answers_may_run_ahead(self)
    }
    fn input_is_intro(&self) -> bool {
        Wrapper::input_is_intro(self)
    }
    fn apply(&mut self, replies: &[(PlayerId, Reply)]) {
        Wrapper::apply(self, replies)
    }
    fn canonical_answer(&self, player: PlayerId, line: &str) -> String {
        Wrapper::canonical_answer(self, player, line)
    }
    fn chance_outcomes(&self) -> Vec<(u64, f64)> {
        Wrapper::chance_outcomes(self)
    }
    fn apply_chance(&mut self, outcome: u64) {
        Wrapper::apply_chance(self, outcome)
    }
    fn is_active(&self, player: PlayerId) -> bool {
        Wrapper::is_active(self, player)
    }
    fn outcome(&self) -> Outcome {
        Wrapper::outcome(self)
    }
    fn setup(&self) -> Value {
        Wrapper::setup(self)
    }
    fn frame(&self) -> Value {
        Wrapper::frame(self)
    }
    fn render(&self) -> String {
        Wrapper::render(self)
    }
    fn verdict(&self) -> Option<Verdict> {
        Wrapper::verdict(self)
    }
    fn remarks(&self) -> Vec<Remark> {
        Wrapper::remarks(self)
    }
    fn expected_cost(&self) -> u64 {
        Wrapper::expected_cost(self)
    }
    fn scripted_answer(&self, player: PlayerId) -> Option<String> {
        Wrapper::scripted_answer(self, player)
    }
}
