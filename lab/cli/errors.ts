/** The CLI's own errors: pure, so `lab` can report them without loading any command's modules. */

/** Wrong command-line use: exit 2 with the message. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
