const CTRL_C = 0x03;

/**
 * Calls `onCtrlC` when Ctrl-C is pressed in the terminal, without the terminal sending SIGINT; returns false when
 * stdin is not a terminal (then SIGINT is the only way, and the caller handles it).
 *
 * Why not SIGINT: the terminal sends it to the whole foreground process group, and that holds the `sh -c` that pnpm
 * runs the `demo` script with (and npm's own `sh -c` under `npx`). dash, Debian's /bin/sh, then kills itself with
 * SIGINT once its child has exited, even when the child exited 0, and pnpm reports that as `ELIFECYCLE Command
 * failed` with status 130. In raw mode Ctrl-C is the byte 0x03 on stdin, seen by this process alone. Node puts the
 * terminal back in its original mode when the process exits. Without a terminal the root scripts' `exec` keeps
 * that shell out of the way: the demo replaces it, so pnpm sees the demo's own exit status.
 */
export function onCtrlCInTerminal(stdin: NodeJS.ReadStream, onCtrlC: () => void): boolean {
  if (!stdin.isTTY) return false;
  stdin.setRawMode(true);
  stdin.on('data', (bytes: Buffer) => {
    if (bytes.includes(CTRL_C)) onCtrlC();
  });
  return true;
}
