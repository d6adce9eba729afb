/** Expected outcomes are values, not exceptions. */
export type Result<T, E> = {ok: true; value: T} | {ok: false; error: E};

/** Wrap a success value. */
export const ok = <T>(value: T): {ok: true; value: T} => ({ok: true, value});

/** Wrap an expected failure. */
export const err = <E>(error: E): {ok: false; error: E} => ({ok: false, error});
