/** docs/*.md and the READMEs of the root, the packages and the apps, under `root`. */
export declare function documents(root: string): string[];
/** The lines of a document's shell blocks (a trailing backslash joins the next), with line numbers. */
export declare function shellLines(file: string): Array<{ line: number; text: string }>;
/** The words of each simple command of a shell line, quotes removed. */
export declare function simpleCommands(text: string): string[][];
/** Every documented invocation of `program`: where, the line, and its arguments. */
export declare function documentedCommands(
  root: string,
  program: string,
): Array<{ where: string; text: string; argv: string[] }>;
