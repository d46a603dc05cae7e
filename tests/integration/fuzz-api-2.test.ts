import { defineFuzzApi } from '../fuzz-api-suite';

// The fuzz suite's /api/ half, part 2 of 3 (tests/fuzz-api-suite.ts; docs/operations.md).
defineFuzzApi(1, 3);
