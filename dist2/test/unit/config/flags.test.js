import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "../../../src/config/errors.js";
import { parseFlags, usage } from "../../../src/config/flags.js";
/** Runs `fn`, expects a ConfigError, returns it. */
function configError(fn) {
    try {
        fn();
    }
    catch (err) {
        assert.ok(err instanceof ConfigError, `expected ConfigError, got ${String(err)}`);
        return err;
    }
    assert.fail("expected a ConfigError");
}
describe("flags: accepted forms", () => {
    it("takes -name=value, --name=value, -name value and --name value", () => {
        assert.equal(parseFlags(["-port=9001"]).port, 9001);
        assert.equal(parseFlags(["--port=9002"]).port, 9002);
        assert.equal(parseFlags(["-port", "9003"]).port, 9003);
        assert.equal(parseFlags(["--port", "9004"]).port, 9004);
        assert.equal(parseFlags(["-homedir", "/x/y"]).homeDir, "/x/y");
        assert.equal(parseFlags(["-config=/a b/c.conf"]).configFile, "/a b/c.conf");
    });
    it("takes a bare boolean as true and -b=false / -b=true as Go's strconv.ParseBool", () => {
        assert.equal(parseFlags(["-tls"]).tls, true);
        assert.equal(parseFlags(["--tls"]).tls, true);
        assert.equal(parseFlags(["-tls=true"]).tls, true);
        assert.equal(parseFlags(["-tls=false"]).tls, false);
        assert.equal(parseFlags(["-tls=0"]).tls, false);
        assert.equal(parseFlags(["-tls=T"]).tls, true);
        assert.equal(parseFlags(["-journaling=true"]).journaling, true);
        assert.equal(parseFlags(["-journaling"]).journaling, true);
        assert.equal(parseFlags([]).tls, undefined, "absent flags stay undefined so the file decides");
    });
    it("a bare boolean does not swallow the next flag", () => {
        const f = parseFlags(["-tls", "-port=1234"]);
        assert.equal(f.tls, true);
        assert.equal(f.port, 1234);
    });
    it("parses every flag of the node", () => {
        const f = parseFlags([
            "-network=custom",
            "-customnet=mynet",
            "-port=0",
            "-homedir=~/n",
            "-blktime=12",
            "-config=~/n/x.conf",
            "-journaling=true",
            "-rpcuser=alice",
            "-rpcpass=s3cret",
            "-tls",
            "-selfaddr= node.example.com ,10.0.0.7,[fd00::5], *.example.org",
            "-maxbody=4096",
            "-verifythreads=3",
            "-loglevel=WARNING",
            "-drop=25",
        ]);
        assert.deepEqual(f, {
            network: "CUSTOM",
            customNet: "mynet",
            port: 0,
            homeDir: "~/n",
            blockTimeSeconds: 12,
            configFile: "~/n/x.conf",
            journaling: true,
            rpcUser: "alice",
            rpcPass: "s3cret",
            tls: true,
            selfAddrs: ["node.example.com", "10.0.0.7", "fd00::5", "*.example.org"],
            maxBodyBytes: 4096,
            verifyThreads: 3,
            logLevel: "warning",
            dropRatePerMille: 25,
        });
    });
    it("maps the reference's level words onto ours", () => {
        assert.equal(parseFlags(["-loglevel=notice"]).logLevel, "info");
        assert.equal(parseFlags(["-loglevel=critical"]).logLevel, "error");
        assert.equal(parseFlags(["-loglevel=warn"]).logLevel, "warning");
        assert.equal(parseFlags(["-loglevel=none"]).logLevel, "none");
    });
    it("later occurrences win, as in Go", () => {
        assert.equal(parseFlags(["-port=1", "-port=2"]).port, 2);
        assert.equal(parseFlags(["-tls", "-tls=false"]).tls, false);
    });
    it("an empty -rpcuser/-rpcpass keeps the file's value (as the reference)", () => {
        const f = parseFlags(["-rpcuser=", "-rpcpass="]);
        assert.equal(f.rpcUser, undefined);
        assert.equal(f.rpcPass, undefined);
    });
    it("recognises -h, -help, -v, -version", () => {
        assert.equal(parseFlags(["-h"]).help, true);
        assert.equal(parseFlags(["--help"]).help, true);
        assert.equal(parseFlags(["-v"]).version, true);
        assert.equal(parseFlags(["-version"]).version, true);
    });
    it("stops at --", () => {
        assert.deepEqual(parseFlags(["-port=5", "--"]), { port: 5 });
    });
});
describe("flags: errors name the flag", () => {
    const cases = [
        [["-bogus=1"], /flag provided but not defined: -bogus/, "-bogus"],
        [["--Port=1"], /flag provided but not defined: -Port/, "-Port"],
        [["-port=abc"], /invalid value for flag -port: expected an integer from 0 to 65535, got "abc"/, "-port"],
        [["-port=70000"], /-port: expected an integer from 0 to 65535, got "70000"/, "-port"],
        [["-port"], /flag needs an argument: -port/, "-port"],
        [["-tls=maybe"], /invalid value for flag -tls: expected true or false, got "maybe"/, "-tls"],
        [["-network=MOON"], /-network: expected one of MAIN, TEST, LOCAL, CUSTOM, got "MOON"/, "-network"],
        [["-blktime=0"], /-blktime: expected an integer from 1/, "-blktime"],
        [["-maxbody=10"], /-maxbody: expected an integer from 1024/, "-maxbody"],
        [["-verifythreads=-1"], /-verifythreads: expected an integer from 0/, "-verifythreads"],
        [["-loglevel=verbose"], /-loglevel: expected one of debug, info, warning, error, none, got "verbose"/, "-loglevel"],
        [["-drop=1001"], /-drop: expected an integer from 0 to 1000/, "-drop"],
        [
            ["-selfaddr=good.example,bad_name!"],
            /-selfaddr: "bad_name!" is neither an IP address nor a DNS name/,
            "-selfaddr",
        ],
        [["-homedir="], /-homedir: expected a directory/, "-homedir"],
    ];
    for (const [argv, message, field] of cases) {
        it(`${argv.join(" ")} → ${field}`, () => {
            const err = configError(() => parseFlags(argv));
            assert.match(err.message, message);
            assert.equal(err.field, field);
        });
    }
    it("rejects stray arguments, including a boolean's value given as a separate word", () => {
        assert.match(configError(() => parseFlags(["extra"])).message, /unexpected argument "extra"/);
        assert.match(configError(() => parseFlags(["-tls", "false"])).message, /unexpected argument "false"/);
        assert.match(configError(() => parseFlags(["--", "x"])).message, /unexpected argument "x"/);
        assert.match(configError(() => parseFlags(["---port=1"])).message, /bad flag syntax: ---port=1/);
    });
});
describe("flags: usage", () => {
    it("lists every flag with its default", () => {
        const text = usage();
        for (const name of [
            "-network",
            "-customnet",
            "-port",
            "-homedir",
            "-blktime",
            "-config",
            "-journaling",
            "-rpcuser",
            "-rpcpass",
            "-tls",
            "-selfaddr",
            "-maxbody",
            "-verifythreads",
            "-loglevel",
            "-drop",
            "-h, -help",
            "-v, -version",
        ]) {
            assert.ok(text.includes(`  ${name}`), `usage lacks ${name}`);
        }
        assert.match(text, /default: 8088/);
        assert.match(text, /default: ~\/\.ledgerd/);
        assert.match(text, /default: <homedir>\/ledgerd\.conf/);
        assert.match(text, /default: 6, or \[App\] DirectoryBlockInSeconds; MAIN always 600/);
        assert.match(text, /default: 1048576/);
        // every flag except -h/-v shows a default
        const blocks = text.split("\n  -").slice(1);
        for (const b of blocks) {
            if (b.startsWith("h,") || b.startsWith("v,"))
                continue;
            assert.match(b, /default: /, `no default for -${b.split("\n")[0]}`);
        }
    });
});
//# sourceMappingURL=flags.test.js.map