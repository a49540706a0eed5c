import Testing

/// One row of a schedule's table test (`ControllerScheduleTests`, `ManagementScheduleTests`):
/// the rule it holds the schedule to, what is under way, what is wanted, and the step the rule
/// demands. Rows are written as changes to a quiet situation with nothing wanted, so each says
/// only what matters to its rule.
struct ScheduleRow<Situation: Sendable, Wishes: Sendable, Step: Sendable>: Sendable, CustomTestStringConvertible {
    let rule: String
    var situation: Situation
    var wishes: Wishes
    let expected: Step
    var testDescription: String { rule }

    init(_ rule: String, _ expected: Step, from quiet: Situation, _ none: Wishes,
         _ change: (inout Situation, inout Wishes) -> Void) {
        var s = quiet
        var w = none
        change(&s, &w)
        self.rule = rule
        situation = s
        wishes = w
        self.expected = expected
    }
}
