import type { ConnectorLogo } from '../kit/manifest';

// An HTTP request is no brand: a glyph of what it does, a paper plane sending (Ant Design Icons'
// SendOutlined, MIT, @ant-design/icons-svg 4.6.0), in the text colour.
export const logo: ConnectorLogo = {
  glyph: {
    viewBox: '64 64 896 896',
    paths: [
      {
        d: 'M931.4 498.9L94.9 79.5c-3.4-1.7-7.3-2.1-11-1.2a15.99 15.99 0 00-11.7 19.3l86.2 352.2c1.3 5.3 5.2 9.6 10.4 11.3l147.7 50.7-147.6 50.7c-5.2 1.8-9.1 6-10.3 11.3L72.2 926.5c-.9 3.7-.5 7.6 1.2 10.9 3.9 7.9 13.5 11.1 21.5 7.2l836.5-417c3.1-1.5 5.6-4.1 7.2-7.1 3.9-8 .7-17.6-7.2-21.6zM170.8 826.3l50.3-205.6 295.2-101.3c2.3-.8 4.2-2.6 5-5 1.4-4.2-.8-8.7-5-10.2L221.1 403 171 198.2l628 314.9-628.2 313.2z',
        fill: 'currentColor',
      },
    ],
  },
};
