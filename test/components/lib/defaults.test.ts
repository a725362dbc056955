import { withDefaults } from "../../../components/lib/defaults";

const DEFAULTS = { replicas: 3, image: "img:1" } as const;

test("withDefaults: a default fills each field the spec leaves undefined, the spec's own fields stay", () => {
  expect(withDefaults({ storageClass: "gp3" } as { storageClass: string; replicas?: number; image?: string }, DEFAULTS)).toEqual({
    storageClass: "gp3",
    replicas: 3,
    image: "img:1",
  });
});

test("withDefaults: a given value wins, 0 and false included", () => {
  expect(withDefaults({ replicas: 0, image: undefined } as { replicas?: number; image?: string }, DEFAULTS)).toEqual({
    replicas: 0,
    image: "img:1",
  });
});
