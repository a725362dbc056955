/** gp3 limits (EBS User Guide, EC2 CreateVolume), the one table every gp3 volume is checked against. */
import { formatArgProblem } from "../../../core/errors";
import { GP3, gp3Problems } from "../../../components/lib/ebs";

const names = { sizeGiB: "sizeGiB", iops: "iops", throughputMiBps: "throughputMiBps" };
const lines = (v: { sizeGiB: unknown; iops: unknown; throughputMiBps: unknown }, min?: number) =>
  gp3Problems(v, names, min).map((p) => formatArgProblem(p));

test("the limits as AWS documents them: 1–65536 GiB, 3000–80000 IOPS, 125–2000 MiB/s, 500 IOPS per GiB, 0.25 MiB/s per IOPS", () => {
  expect(GP3).toEqual({
    minSizeGiB: 1,
    maxSizeGiB: 65536,
    baselineIops: 3000,
    maxIops: 80000,
    baselineThroughputMiBps: 125,
    maxThroughputMiBps: 2000,
    maxIopsPerGiB: 500,
    maxMiBpsPerIops: 0.25,
  });
});

test("the bounds are inclusive", () => {
  expect(lines({ sizeGiB: 1, iops: 3000, throughputMiBps: 125 })).toEqual([
    "'iops' must be at most 500 per GiB of 'sizeGiB' (500), got 3000",
  ]);
  expect(lines({ sizeGiB: 6, iops: 3000, throughputMiBps: 125 })).toEqual([]);
  expect(lines({ sizeGiB: 65536, iops: 80000, throughputMiBps: 2000 })).toEqual([]);
  expect(lines({ sizeGiB: 160, iops: 80000, throughputMiBps: 2000 })).toEqual([]);
  expect(lines({ sizeGiB: 100, iops: 8000, throughputMiBps: 2000 })).toEqual([]);
});

test("every range problem at once, with the value as given", () => {
  expect(lines({ sizeGiB: 0, iops: 80001, throughputMiBps: 2001 })).toEqual([
    "'sizeGiB' must be a whole number of GiB from 1 to 65536 (gp3), got 0",
    "'iops' must be a whole number of IOPS from 3000 to 80000 (gp3), got 80001",
    "'throughputMiBps' must be a whole number of MiB/s from 125 to 2000 (gp3), got 2001",
  ]);
  expect(lines({ sizeGiB: 65537, iops: 2999, throughputMiBps: 124 })).toEqual([
    "'sizeGiB' must be a whole number of GiB from 1 to 65536 (gp3), got 65537",
    "'iops' must be a whole number of IOPS from 3000 to 80000 (gp3), got 2999",
    "'throughputMiBps' must be a whole number of MiB/s from 125 to 2000 (gp3), got 124",
  ]);
  expect(lines({ sizeGiB: "100", iops: 3000.5, throughputMiBps: undefined })).toEqual([
    `'sizeGiB' must be a whole number of GiB from 1 to 65536 (gp3), got "100"`,
    "'iops' must be a whole number of IOPS from 3000 to 80000 (gp3), got 3000.5",
    "'throughputMiBps' must be a whole number of MiB/s from 125 to 2000 (gp3), got nothing",
  ]);
});

test("the ratios, naming the other setting; a ratio is not checked against a value out of range", () => {
  expect(lines({ sizeGiB: 10, iops: 6000, throughputMiBps: 1501 })).toEqual([
    "'iops' must be at most 500 per GiB of 'sizeGiB' (5000), got 6000",
    "'throughputMiBps' must be at most 0.25 MiB/s per IOPS of 'iops' (1500), got 1501",
  ]);
  expect(lines({ sizeGiB: 100, iops: 3001, throughputMiBps: 751 })).toEqual([
    "'throughputMiBps' must be at most 0.25 MiB/s per IOPS of 'iops' (750), got 751",
  ]);
  expect(lines({ sizeGiB: 0, iops: 90000, throughputMiBps: 1000 })).toEqual([
    "'sizeGiB' must be a whole number of GiB from 1 to 65536 (gp3), got 0",
    "'iops' must be a whole number of IOPS from 3000 to 80000 (gp3), got 90000",
  ]);
});

test("a caller's names go into the paths and the references; a caller may raise the size floor", () => {
  const p = gp3Problems(
    { sizeGiB: 4, iops: 3000, throughputMiBps: 800 },
    { sizeGiB: "rootGiB", iops: "rootIops", throughputMiBps: "rootMiBps" },
    8,
  ).map((x) => formatArgProblem(x, (a) => `lab:${a}`));
  expect(p).toEqual([
    "'lab:rootGiB' must be a whole number of GiB from 8 to 65536 (gp3), got 4",
    "'lab:rootMiBps' must be at most 0.25 MiB/s per IOPS of 'lab:rootIops' (750), got 800",
  ]);
});
