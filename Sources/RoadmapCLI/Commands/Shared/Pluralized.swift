/// A count and its noun, agreeing in number: `1 feature`, `2 features`, `0 stages`.
///
/// Every summary line of the CLI says its counts this way, so none reads "1 stages".
/// - Parameters:
///   - number: How many.
///   - singular: The noun for one (`feature`).
///   - plural: The noun for any other number; the singular with an `s` when not given.
func pluralized(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
  "\(number) " + (number == 1 ? singular : plural ?? singular + "s")
}
