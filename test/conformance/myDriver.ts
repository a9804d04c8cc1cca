// The driver docs/conformance.md's snippet imports: here, the Host's reference driver.
export { hostDriver as myDriver } from '../../conformance/index.js';
