// opencc-js's dictionary modules (its package exports them as "./*"), each "source replacement|…".
declare module 'opencc-js/dict/*' {
  const dict: string;
  export default dict;
}
