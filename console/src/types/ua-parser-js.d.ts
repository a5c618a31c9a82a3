/** The part of ua-parser-js 1.x (MIT; the package ships no types) the sessions tab uses. */
declare module 'ua-parser-js' {
  interface UAParserResult {
    ua: string;
    browser: { name?: string; version?: string; major?: string };
    os: { name?: string; version?: string };
    device: { type?: string; vendor?: string; model?: string };
  }
  class UAParser {
    constructor(userAgent?: string);
    getResult(): UAParserResult;
  }
  export default UAParser;
}
