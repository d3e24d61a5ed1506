// Preload for the bundle test: print "[intl] NAME" to stderr whenever a process sets up an Intl date formatter.
const DateTimeFormat = Intl.DateTimeFormat;
Intl.DateTimeFormat = new Proxy(DateTimeFormat, {
  construct(target, args, newTarget) {
    process.stderr.write('[intl] DateTimeFormat\n');
    return Reflect.construct(target, args, newTarget);
  },
  apply(target, self, args) {
    process.stderr.write('[intl] DateTimeFormat\n');
    return Reflect.apply(target, self, args);
  },
});
