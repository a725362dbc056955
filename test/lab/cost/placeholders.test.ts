/**
 * The estimate's placeholders are the offline plan's. A file of its own: lab/plan/run loads
 * @pulumi/pulumi (seconds), which the estimate's unit tests (`npm run mutate cost` runs them once a
 * mutant) do not need.
 */
import { COMPUTED, SECRET } from "../../../lab/cost/estimate";
import { COMPUTED as PLAN_COMPUTED, SECRET as PLAN_SECRET } from "../../../lab/plan/run";

test("the placeholders are the offline plan's", () => {
  expect(COMPUTED).toBe(PLAN_COMPUTED);
  expect(SECRET).toBe(PLAN_SECRET);
});
