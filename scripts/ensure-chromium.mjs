// Finds Chromium for the browser tests; installs Debian's package when running as root with apt.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const path = process.env.CHROME_PATH ?? '/usr/bin/chromium';
if (!existsSync(path)) {
  const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canApt) {
    console.error(`Chromium not found at ${path}: install it (Debian: sudo apt-get install -y chromium) or set CHROME_PATH.`);
    process.exit(1);
  }
  console.log("Chromium not found: installing Debian's chromium package…");
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null', {
    stdio: 'inherit',
    shell: '/bin/bash',
  });
  if (!existsSync(path)) {
    console.error(`Chromium still not found at ${path} after apt-get: install it by hand (apt-get install -y chromium).`);
    process.exit(1);
  }
}
