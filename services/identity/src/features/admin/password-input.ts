import type { ReadStream } from 'node:tty';
import { UsageError } from './cli';

/** Where create-admin reads a password from: the process's standard input, prompts on standard error. */
export interface PasswordIo {
  stdin: NodeJS.ReadableStream & Partial<Pick<ReadStream, 'isTTY' | 'setRawMode'>>;
  stderr: NodeJS.WritableStream;
}

const NO_PASSWORD = 'create-admin: no password on standard input';

/**
 * create-admin's password. `--password P` still works, but npm echoes it and the shell keeps it in its history,
 * so the documented ways read standard input instead: on a terminal a prompt without echo, asked twice; otherwise
 * (`--password-stdin`, or no `--password` at all) everything piped in, less one final line break.
 */
export async function readAdminPassword(
  flags: Record<string, string>,
  io: PasswordIo = { stdin: process.stdin, stderr: process.stderr },
): Promise<string> {
  const fromStdin = flags['password-stdin'] !== undefined;
  if (fromStdin && flags.password !== undefined)
    throw new UsageError('create-admin: give --password or --password-stdin, not both');
  if (flags.password !== undefined) return flags.password;
  if (io.stdin.isTTY && io.stdin.setRawMode) {
    const first = await promptHidden('Password: ', io);
    if (!first) throw new UsageError('create-admin: no password given');
    if ((await promptHidden('Password again: ', io)) !== first)
      throw new UsageError('create-admin: the passwords do not match');
    return first;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk as Buffer));
  const text = Buffer.concat(chunks).toString('utf8').replace(/\n$/, '').replace(/\r$/, '');
  if (!text) throw new UsageError(NO_PASSWORD);
  return text;
}

/** One line typed on the terminal with echo off (raw mode): Enter ends it, Backspace and Ctrl-U edit, Ctrl-C quits. */
function promptHidden(prompt: string, io: PasswordIo): Promise<string> {
  const { stdin, stderr } = io;
  const setRaw = stdin.setRawMode as (raw: boolean) => void;
  // Echo off before the prompt shows: keys typed as soon as it appears are never echoed.
  setRaw.call(stdin, true);
  stdin.resume();
  stderr.write(prompt);
  return new Promise((resolve) => {
    let value = '';
    const finish = () => {
      stdin.off('data', onData);
      setRaw.call(stdin, false);
      stdin.pause();
      stderr.write('\n');
    };
    const onData = (data: Buffer | string) => {
      const text = data.toString();
      // An escape sequence (arrow keys, function keys) is not part of a password.
      if (text.startsWith('\u001b')) return;
      for (const char of text) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          finish();
          resolve(value);
          return;
        }
        if (char === '\u0003') {
          // Ctrl-C: raw mode turned it into a character; give the terminal back, then stop as Ctrl-C would.
          finish();
          process.kill(process.pid, 'SIGINT');
          return;
        }
        if (char === '\u007f' || char === '\b') value = [...value].slice(0, -1).join('');
        else if (char === '\u0015') value = '';
        else if (char >= ' ') value += char;
      }
    };
    stdin.on('data', onData);
  });
}
