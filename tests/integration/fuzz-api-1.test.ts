import { defineFuzzApi } from '../fuzz-api-suite';

// The fuzz suite's /api/ half, part 1 of 3 (tests/fuzz-api-suite.ts; docs/operations.md).
defineFuzzApi(0, 3);
