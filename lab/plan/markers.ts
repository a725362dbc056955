/** How a plan shows values it cannot print: pure, shared by the plan engine and its readers. */

/** A secret value (config `secure:` entries, secret outputs and inputs). */
export const SECRET = "[secret]";
/** A value only a real deployment knows. */
export const COMPUTED = "<computed>";
