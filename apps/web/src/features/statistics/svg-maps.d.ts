/** The shape of the `@svg-maps/*` packages' default export (their own types name a package they do not ship). */
declare module 'svg-maps__common' {
  export type Map = { label: string; viewBox: string; locations: { name: string; id: string; path: string }[] };
}
