/**
 * The CLI reference of docs/cli.md, rendered from the commands' own help (lab/cli/main.ts
 * `cliProgram`, commander's `helpInformation()`), so it cannot drift from what `lab <command>
 * --help` prints.
 */
import type { Command } from "commander";
import { cliProgram } from "../cli/main";

/** Help is wrapped at this width, whatever the terminal: the page is the same on every machine. */
export const HELP_WIDTH = 100;

/** Every command with its full name (`lab results save`), the program first, depth first. */
export function commandsOf(program: Command = cliProgram()): { name: string; command: Command }[] {
  const out: { name: string; command: Command }[] = [];
  const walk = (c: Command, prefix: string) => {
    const name = prefix === "" ? c.name() : `${prefix} ${c.name()}`;
    out.push({ name, command: c });
    for (const sub of c.commands) walk(sub, name);
  };
  walk(program, "");
  return out;
}

/** The long flags of a command's own options (`--dry-run`), without the help option. */
export function optionsOf(command: Command): string[] {
  return command.options.map((o) => o.long ?? o.short ?? o.flags).filter((f) => f !== "--help");
}

/** The help text of one command at {@link HELP_WIDTH} columns. */
export function helpOf(command: Command): string {
  command.configureHelp({ helpWidth: HELP_WIDTH });
  return command.helpInformation().trimEnd();
}

/** The generated part of docs/cli.md: one section per command, its help as printed. */
export function renderCliReference(program: Command = cliProgram()): string {
  return commandsOf(program)
    .map(({ name, command }) => [`### \`${name}\``, "", "```text", helpOf(command), "```"].join("\n"))
    .join("\n\n");
}
