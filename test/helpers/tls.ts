/** A throwaway self-signed certificate for 127.0.0.1 (openssl, EC P-256, one day): kubectl sends credentials to an https server only. */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/** Writes key.pem and cert.pem into `dir`; returns their PEM texts. */
export function loopbackCertificate(dir: string): { key: string; cert: string } {
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"].concat([
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      path.join(dir, "key.pem"),
      "-out",
      path.join(dir, "cert.pem"),
    ]),
    { stdio: "ignore" },
  );
  return { key: fs.readFileSync(path.join(dir, "key.pem"), "utf8"), cert: fs.readFileSync(path.join(dir, "cert.pem"), "utf8") };
}
