// testmend's DOM capture: the project's jest configuration, with the capture's setup file added
// to its setupFilesAfterEnv (the jest CLI option would replace the project's list). Written
// beside the project's configuration for one run; the lines in capitals are filled in for the
// project's module system and configuration.
IMPORT_PATH
LOAD_BASE
const DIR = DIR_VALUE;
const SETUP = SETUP_VALUE;

function extend(cfg) {
  const c = Object.assign({}, cfg || {});
  c.rootDir = c.rootDir ? path.resolve(DIR, c.rootDir) : DIR;
  if (Array.isArray(c.projects) && c.projects.length) {
    c.projects = c.projects.map((p) =>
      typeof p === 'object' && p !== null
        ? Object.assign({}, p, {
            rootDir: p.rootDir ? path.resolve(c.rootDir, p.rootDir) : c.rootDir,
            setupFilesAfterEnv: [...(p.setupFilesAfterEnv || []), SETUP],
          })
        : p,
    );
  }
  c.setupFilesAfterEnv = [...(c.setupFilesAfterEnv || []), SETUP];
  return c;
}

// A plain configuration stays a plain object: jest before 26 ignores a configuration that is a
// function (it would run with the defaults, without the project's setup files). Function and
// promise configurations stay functions (jest 26 and later call them).
const deferred = typeof base === 'function' || (base && typeof base.then === 'function');
EXPORT deferred
  ? async () => extend(typeof base === 'function' ? await base() : await base)
  : extend(base);
