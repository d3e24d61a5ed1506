/**
 * A report writes a time per flag, ballot and post it lists, and many share an instant (a post's flags
 * its post time): `writtenOnce(write)` writes each distinct instant once and looks the text up after.
 */
export function writtenOnce(write: (ms: number) => string): (ms: number) => string {
  const written = new Map<number, string>();
  return (ms) => {
    let text = written.get(ms);
    if (text === undefined) written.set(ms, (text = write(ms)));
    return text;
  };
}
