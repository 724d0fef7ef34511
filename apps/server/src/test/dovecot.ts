// A real IMAP server for the parser tests: Dovecot from Debian's packages (apt-get install -y
// dovecot-imapd; .ci/run installs it when missing), started as our OWN instance: its own config,
// mail folder, state and log in a temporary folder, listening on a free loopback port, stopped and
// removed afterwards. It never touches a system service. As root, Dovecot's login processes run as
// dovenull and the mail as nobody (Dovecot refuses root for both); otherwise all as the current user.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

const BINARIES = ['/usr/sbin/dovecot', '/usr/local/sbin/dovecot'];

export interface Dovecot {
  port: number;
  user: string;
  password: string;
  dir: string;
  /** The instance's log (what to show when a test fails). */
  log(): string;
  stop(): Promise<void>;
}

function idOf(flag: '-u' | '-g', name: string): number {
  return Number(execFileSync('id', [flag, name]).toString().trim());
}

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`dovecot exited (${child.exitCode}):\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('data', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`dovecot did not answer on port ${port}:\n${log()}`);
}

export async function startDovecot(): Promise<Dovecot> {
  const binary = BINARIES.find((b) => existsSync(b));
  if (!binary) {
    throw new Error('Dovecot is not installed: apt-get install -y dovecot-imapd (.ci/run installs it when missing)');
  }
  const dir = mkdtempSync('/tmp/lr-dovecot-');
  chmodSync(dir, 0o755);
  for (const sub of ['run', 'state', 'mail', 'home']) mkdirSync(join(dir, sub));
  const port = await freePort();
  const me = userInfo();
  const isRoot = me.uid === 0;
  const mailUser = isRoot ? 'nobody' : me.username;
  const mailGroup = isRoot
    ? execFileSync('id', ['-gn', 'nobody']).toString().trim()
    : execFileSync('id', ['-gn']).toString().trim();
  if (isRoot) {
    for (const sub of ['mail', 'home']) chownSync(join(dir, sub), idOf('-u', 'nobody'), idOf('-g', 'nobody'));
  }
  const user = 'shop@parsers.test';
  const password = 'Imap-Secret-1';
  writeFileSync(join(dir, 'passwd'), `${user}:{PLAIN}${password}\n`, { mode: 0o644 });
  const conf = `
protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = leadrelay-test-${port}
log_path = ${dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:${dir}/mail/%u
first_valid_uid = 1
default_login_user = ${isRoot ? 'dovenull' : me.username}
default_internal_user = ${isRoot ? 'dovecot' : me.username}
default_internal_group = ${isRoot ? 'dovecot' : mailGroup}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${mailUser} gid=${mailGroup} home=${dir}/home/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
  chroot =
}
service anvil {
  chroot =
}
service pop3-login {
  inet_listener pop3 {
    port = 0
  }
  inet_listener pop3s {
    port = 0
  }
}
service submission-login {
  inet_listener submission {
    port = 0
  }
}
`;
  writeFileSync(join(dir, 'dovecot.conf'), conf);
  const child = spawn(binary, ['-F', '-c', join(dir, 'dovecot.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const log = () => {
    const file = join(dir, 'dovecot.log');
    return `${output}${existsSync(file) ? readFileSync(file, 'utf8') : ''}`;
  };
  try {
    await waitForPort(port, child, log);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    user,
    password,
    dir,
    log,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A TCP proxy in front of a server that can drop the connection the way a server or a network does:
 * when the client next sends a command matching `pattern`, both sides are closed before it arrives.
 */
export interface CuttingProxy {
  port: number;
  /** The next client write matching the pattern (its nth match, default the first) closes the connection. */
  cutOn(pattern: RegExp, nth?: number): void;
  /** How many connections were cut. */
  readonly cuts: number;
  close(): Promise<void>;
}

export async function startCuttingProxy(targetPort: number): Promise<CuttingProxy> {
  let rule: { pattern: RegExp; left: number } | null = null;
  let cuts = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ port: targetPort, host: '127.0.0.1' });
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (data) => {
      if (rule?.pattern.test(data.toString('latin1'))) {
        rule.left--;
        if (rule.left <= 0) {
          rule = null;
          cuts++;
          drop();
          return;
        }
      }
      upstream.write(data);
    });
    upstream.on('data', (data) => client.write(data));
    client.on('close', drop);
    upstream.on('close', drop);
    client.on('error', drop);
    upstream.on('error', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    cutOn(pattern, nth = 1) {
      rule = { pattern, left: nth };
    },
    get cuts() {
      return cuts;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
