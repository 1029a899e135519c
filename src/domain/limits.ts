/**
 * The numeric limits of the v2 contract (spec section 8). Every schema, rule and document reads
 * them from here, so a limit is stated exactly once.
 */
export const MAX_TITLE_LENGTH = 200;
export const MAX_FILES_PER_REQUEST = 10;
/** 1023 GiB. The spec labels it "999 GiB"; the number is what binds (see shared/design.md). */
export const MAX_FILE_SIZE = 1_098_437_885_952;
/** An empty, ownerless folder is deleted once this many hours pass without an upload. */
export const UPLOAD_REQUIRED_WITHIN_HOURS = 24;
export const HOUR_MS = 3_600_000;
